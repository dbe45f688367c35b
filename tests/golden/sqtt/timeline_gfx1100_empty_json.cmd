--json
sqtt
timeline
@DATA@/sqtt/gfx1100/empty
--blob
se0.bin
