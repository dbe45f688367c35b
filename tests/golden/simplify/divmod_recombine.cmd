--json
simplify
x//3%4*2+x//12%5*8
--var
x=0:199
