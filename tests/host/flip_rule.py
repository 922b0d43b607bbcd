#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the flips of one reason follow the rule of the kernel code
# that makes them: at least --min-flips of them, each from one of --from to
# one of --to, from a caller whose symbol starts with --caller (the event's
# caller field, resolved by trace-cmd through the capture's kallsyms; a|b:
# either).  E.g. __isolate_free_page() only makes Unmovable or Reclaimable
# blocks Movable: --reason isolate_free --from Unmovable,Reclaimable --to
# Movable --caller __isolate_free_page (on 6.12 the flip's caller is the
# helper it calls, __move_freepages_block).
# usage: flip_rule.py DIR | --report FILE --reason R --from A,B --to C [--caller SYM|SYM]
from report import Tap, events, oracle_args


def extra(p):
    p.add_argument('--reason', required=True)
    p.add_argument('--from', dest='old', required=True, help='old_mt allowed (comma list)')
    p.add_argument('--to', dest='new', required=True, help='new_mt allowed (comma list)')
    p.add_argument('--caller', default='', help='caller symbol prefix (a|b: either)')


a = oracle_args('flips of one reason follow their rule', minimum=['flips'], extra=extra)
t = Tap('%s flips %s' % (a.reason, a.name))
old, new = set(a.old.split(',')), set(a.new.split(','))
callers = tuple(a.caller.split('|'))
flips, bad = 0, []
for e in events(a.capture, {'pageblock_flip'}):
    if e.f['reason'] != a.reason:
        continue
    flips += 1
    if e.f['old_mt'] not in old or e.f['new_mt'] not in new or \
            not e.f.get('caller', '').startswith(callers):
        bad.append(str(e))
t.check(flips >= a.min_flips, 'at least %d flips with reason %s (%d)'
        % (a.min_flips, a.reason, flips))
t.check(not bad, 'each goes from %s to %s%s' % ('/'.join(sorted(old)), '/'.join(sorted(new)),
        ', called from %s' % a.caller if a.caller else ''), bad)
t.done()
