# expect: 9:21 unknown-tool
# expect: 10:30 missing-key
# expect: 11:40 unknown-key
# expect: 12:52 wrong-type
# expect: 13:1 not-awaited
# expect: 14:8 unavailable
# expect: 15:6 unavailable
# expect: 17:7 bad-arguments
found = await tools.search_issue({"query": "crash"})
file = await tools.read_file({"limit": 5})
more = await tools.read_file(path="a", lines=5)
w = await tools.get_weather(location="Oslo", units=3)
tools.list_directory({"path": "."})
import requests
with open("x") as f:
    pass
await tools.read_file({"path": "a"}, {"limit": 1})
