#!/bin/sh
# description: every mobility event is registered; keep its format file
# so the host can check it against the documented ABI (tracepoints/)
ev=/sys/kernel/tracing/events/mobility
rc=0
for e in pageblock_steal pageblock_flip pcp_drain migrate_folio migrate_folio_failed \
	 migrate_pass pageblock_state \
	 pageblock_snapshot pageblock_census; do
	if [ -r "$ev/$e/format" ]; then
		cp "$ev/$e/format" "$OUT/$e.format"
	else
		echo "missing event mobility:$e"
		rc=1
	fi
done
exit $rc
