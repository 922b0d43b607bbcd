#!/usr/bin/env python3
# instrument.py SRC DST: page_alloc.c with counters of the fallback work
# (debugfs fvclaim/*), for the stealloop investigation only.
import re, sys
s = open(sys.argv[1]).read()

def sub1(pat, rep, s, flags=0):
    n = len(re.findall(pat, s, flags))
    assert n == 1, (pat, n)
    return re.sub(pat, rep, s, flags=flags)

FIELDS = ["bulk", "claim_calls", "tsb", "walks", "walk_steps", "claimed",
          "steals"]
s = sub1(r"(\nint page_group_by_mobility_disabled __read_mostly;\n)",
         r"\1\nstatic struct { unsigned long " + ", ".join(FIELDS) +
         "; } fvc;\n", s)
# prep_move_freepages_block: the walk, and its steps
m = re.search(r"\nstatic bool prep_move_freepages_block\(.*?\n}\n", s, re.S)
body = m.group(0)
body2 = body.replace("\tif (num_free) {\n", "\tif (num_free) {\n\t\tfvc.walks++;\n", 1)
body2 = body2.replace("\t\t\tpage = pfn_to_page(pfn);\n",
                      "\t\t\tpage = pfn_to_page(pfn);\n\t\t\tfvc.walk_steps++;\n", 1)
assert body2.count("fvc.") == 2
s = s.replace(body, body2)
# try_to_steal_block: entries and claims
m = re.search(r"\ntry_to_steal_block\(.*?\n}\n", s, re.S)
body = m.group(0)
body2 = re.sub(r"(\n\tblock_type = get_pageblock_migratetype\(page\);\n)",
               r"\n\tfvc.tsb++;\1", body, count=1)
body2 = re.sub(r"(\n\t\tdel_page_from_free_list\(page, zone, current_order, block_type\);\n)",
               r"\n\t\tfvc.claimed++;\1", body2, count=1)
body2 = re.sub(r"(\n\t\t__move_freepages_block\(zone, start_pfn, block_type, start_type)",
               r"\n\t\tfvc.claimed++;\1", body2, count=1)
assert body2.count("fvc.") == 3, body2.count("fvc.")
s = s.replace(body, body2)
# __rmqueue_claim entry
s = sub1(r"(\n__rmqueue_claim\(struct zone \*zone, int order, int start_migratetype,\n[^{]*\{\n(?:\t[^\n]*;\n)*)",
         r"\1\n\tfvc.claim_calls++;\n", s)
# __rmqueue_steal success
m = re.search(r"\n__rmqueue_steal\(.*?\n}\n", s, re.S)
body = m.group(0)
body2 = body.replace("\t\tpage_del_and_expand(", "\t\tfvc.steals++;\n\t\tpage_del_and_expand(", 1)
assert body2 != body
s = s.replace(body, body2)
# rmqueue_bulk calls
m = re.search(r"\nstatic int rmqueue_bulk\(.*?\n}\n", s, re.S)
body = m.group(0)
body2 = body.replace("\tspin_lock_irqsave(&zone->lock, flags);\n",
                     "\tspin_lock_irqsave(&zone->lock, flags);\n\tfvc.bulk++;\n", 1)
assert body2 != body
s = s.replace(body, body2)
s += "\n#include <linux/debugfs.h>\nstatic int __init fvc_init(void)\n{\n\tstruct dentry *d = debugfs_create_dir(\"fvclaim\", NULL);\n\n"
for f in FIELDS:
    s += '\tdebugfs_create_ulong("%s", 0444, d, &fvc.%s);\n' % (f, f)
s += "\treturn 0;\n}\nlate_initcall(fvc_init);\n"
open(sys.argv[2], "w").write(s)
