--json
pmc
--counters
gfx11
--block
SQ
