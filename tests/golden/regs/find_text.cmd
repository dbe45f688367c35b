regs
find
gc.SCRATCH_REG?
--asic
navi31
