#!/bin/sh
# description: pageblocks reads the same with tiny buffers and odd offsets
# (seq_file iterator restarts in the middle of zones and lines)
dbg=/sys/kernel/debug/mobility
layout() { awk '{ print $1, $2 }'; }	# pfn and type: free counts move

# A block may change type between two reads (a fallback claims it): that
# is the map being right, not the reader being wrong, so each comparison
# gets a few tries of back-to-back reads, as 03-pagetypeinfo does.
rc=0
for bs in 1 7 100 4095; do
	same=0
	for try in 1 2 3; do
		cat $dbg/pageblocks | layout > "$OUT/whole"
		dd if=$dbg/pageblocks bs=$bs 2>/dev/null | layout > "$OUT/bs$bs"
		[ -s "$OUT/whole" ] || { echo "empty pageblocks"; exit 1; }
		if cmp -s "$OUT/whole" "$OUT/bs$bs"; then
			same=1
			break
		fi
	done
	[ $same = 1 ] || { echo "bs=$bs differs in 3 tries:"; diff "$OUT/whole" "$OUT/bs$bs" | head; rc=1; }
done
# start at an odd byte offset: the first (partial) line must be byte for
# byte the end of the line of a whole read that holds that offset, and every
# later line must be that whole read's next line, pfn and type exactly.
# (Free counts move and change a line's width, which can move the offset
# into a neighbouring line: a few tries of back-to-back reads.)
size=$(cat $dbg/pageblocks | wc -c)
for off in 1 333 $((size / 2)) $((size - 1)); do
	same=0
	for try in 1 2 3 4 5; do
		cat $dbg/pageblocks > "$OUT/whole$off"
		dd if=$dbg/pageblocks bs=1 skip=$off 2>/dev/null > "$OUT/skip$off"
		k=$(head -c $off "$OUT/whole$off" | wc -l)	# lines before the offset
		line=$(sed -n "$((k + 1))p" "$OUT/whole$off")
		part=$(head -n 1 "$OUT/skip$off")
		tail -n +2 "$OUT/skip$off" | layout > "$OUT/skip$off.layout"
		tail -n +$((k + 2)) "$OUT/whole$off" | layout > "$OUT/whole$off.layout"
		case $line in
		*"$part") cmp -s "$OUT/skip$off.layout" "$OUT/whole$off.layout" &&
			{ same=1; break; } ;;
		esac
	done
	if [ $same = 1 ]; then
		echo "skip=$off: '$part' ends line $((k + 1)), then $(wc -l < "$OUT/skip$off.layout") lines as in a whole read (try $try)"
	else
		echo "skip=$off: differs from a whole read in 5 tries: first line '$part'," \
			"whole read's line $((k + 1)) '$line'"
		diff "$OUT/whole$off.layout" "$OUT/skip$off.layout" | head -n 5
		rc=1
	fi
done
exit $rc
