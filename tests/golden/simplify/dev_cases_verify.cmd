simplify
--quiet
--cases
@DATA@/symbolic/dev.jsonl
--verify
