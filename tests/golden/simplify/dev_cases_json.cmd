simplify
--quiet
--cases
@DATA@/symbolic/dev.jsonl
--json
