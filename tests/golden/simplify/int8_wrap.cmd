simplify
int8(a*20)+int8(1)
--var
a=-12:1:int8
--verify
