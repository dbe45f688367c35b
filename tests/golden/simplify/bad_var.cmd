simplify
a+1
--var
a=3:1
