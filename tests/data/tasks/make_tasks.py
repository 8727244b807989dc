"""Writes tasks.json: a fixture task set for finalize/gradeTask, produced by a tiny
simulated environment (search, document and reserve tools over docs/*.md, a stock table
and a ledger) driven by a scripted, well-behaved policy. Each entry holds the task, the
ordered observations, the policy's finish, the effects measured on the environment and
the expected grade inputs. Run: python3 make_tasks.py"""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = {}
for name in sorted(os.listdir(os.path.join(HERE, "docs"))):
    with open(os.path.join(HERE, "docs", name), encoding="utf-8", newline="") as f:
        body = f.read()
    item = name[:-3]
    DOCS[item] = {"id": item, "title": body.splitlines()[0].lstrip("# "), "body": body}
STOCK = {"camera": 3, "tripod": 5, "microphone": 2, "projector": 1, "drone": 4}
RESTRICTED = {"drone": "a pilot licence is not on file for this user"}


def claims(item):
    body = DOCS[item]["body"]
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return [{"item_id": item, "sha256": sha, "line": i, "quote": line, "text": line[2:]}
            for i, line in enumerate(body.splitlines(), 1) if line.startswith("- ")]


class Env:
    def __init__(self):
        self.stock = dict(STOCK)
        self.ledger = []
        self.revision = 0
        self.obs = []

    def search(self, query):
        hits = sorted(i for i, d in DOCS.items() if query.lower() in d["body"].lower())
        self.obs.append({"tool": "search", "query": query, "hits": hits})
        return hits

    def document(self, item):
        self.obs.append({"tool": "document", "document": DOCS[item]})

    def reserve(self, item, qty, key, lose_reply=False):
        request = {"item_id": item, "quantity": qty, "receipt_key": key}
        if item in RESTRICTED:
            result = {"status": "denied", "item_id": item, "reason": RESTRICTED[item]}
        elif self.stock[item] < qty:
            result = {"status": "insufficient", "item_id": item, "requested": qty, "available": self.stock[item]}
        else:
            self.stock[item] -= qty
            self.revision += 1
            self.ledger.append(key)
            result = {"status": "reserved", "item_id": item, "quantity": qty, "remaining": self.stock[item],
                      "revision": self.revision, "receipt": key}
        self.obs.append({"tool": "reserve", "request": request, "result": None if lose_reply else result})
        return result


def run(task_id, kind, query, item=None, qty=None, lose_reply=False):
    env = Env()
    task = {"task_id": task_id, "kind": kind}
    if item:
        task["item_id"] = item
    if qty:
        task["quantity"] = qty
    hits = env.search(query)
    if len(hits) == 0:
        finish = {"status": "not_found", "claims": []}
    elif len(hits) > 1:
        finish = {"status": "abstain", "claims": []}
    else:
        hit = hits[0]
        env.document(hit)
        if kind == "query":
            finish = {"status": "info", "claims": claims(hit)}
        else:
            r = env.reserve(hit, qty, f"rk-{task_id}", lose_reply)
            if lose_reply:
                finish = {"status": "reserved", "claims": claims(hit)}
            elif r["status"] == "denied":
                finish = {"status": "denied", "claims": []}
            else:
                finish = {"status": r["status"], "claims": claims(hit)}
    status = "unconfirmed" if lose_reply else finish["status"]
    touched = item or (hits[0] if len(hits) == 1 else None)
    remaining = env.stock.get(touched) if kind == "reserve" else None
    stock_before = STOCK.get(touched) if kind == "reserve" else None
    # The run's observations and task are the grader's own input: it replays the receipts
    # from these, never from the outcome it grades.
    effects = {"ledger": len(env.ledger), "remaining": remaining, "stock_before": stock_before,
               "observations": env.obs, "task": task}
    expected = {"status": status, "ledger": len(env.ledger), "remaining": remaining,
                "item_id": touched if finish["status"] in ("info", "reserved", "insufficient") and not lose_reply else None,
                "quantity": qty}
    return {"task": task, "observations": env.obs, "finish": finish, "effects": effects, "expected": expected}


TASKS = [
    run("q-camera", "query", "mirrorless"),
    run("q-tripod", "query", "tripod"),
    run("q-microphone", "query", "interviews"),
    run("q-projector", "query", "projector"),
    run("q-drone", "query", "quadcopter"),
    run("r-camera-1", "reserve", "mirrorless", "camera", 1),
    run("r-camera-3", "reserve", "mirrorless", "camera", 3),
    run("r-tripod-2", "reserve", "aluminium tripod", "tripod", 2),
    run("r-microphone-2", "reserve", "field microphone", "microphone", 2),
    run("r-projector-1", "reserve", "short-throw", "projector", 1),
    run("s-camera-4", "reserve", "mirrorless", "camera", 4),
    run("s-projector-2", "reserve", "short-throw", "projector", 2),
    run("d-drone-1", "reserve", "quadcopter", "drone", 1),
    run("d-drone-2", "reserve", "survey drone", "drone", 2),
    run("n-telescope", "query", "telescope"),
    run("n-laptop", "reserve", "laptop", "laptop", 1),
    run("a-within", "query", "within"),
    run("a-borrowing", "reserve", "borrowing requires", "camera", 1),
    run("u-tripod-1", "reserve", "aluminium tripod", "tripod", 1, lose_reply=True),
]

with open(os.path.join(HERE, "tasks.json"), "w", encoding="utf-8") as f:
    json.dump(TASKS, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(f"wrote {len(TASKS)} tasks: " + ", ".join(f"{t['task']['task_id']}={t['expected']['status']}" for t in TASKS))
