compile
elementwise
--target
c
