--json
simplify
(5+7*a)%8
--var
a=0:3
--verify
