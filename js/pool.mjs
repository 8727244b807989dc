// The worker pool of `check DIR` and `check -`: batches of bundles checked on `jobs` worker
// threads (js/worker.mjs), their results taken in the order the batches came, whatever
// order they finish in. Each worker holds at most two tasks (the one it checks and the
// next, waiting in its queue), and at most `window` batches are in the pool at once, from
// submitted to taken: memory is bounded by the batch size and the number of workers, not
// by how many batches come. A worker that traps is replaced, what it still held goes to
// another; a worker that dies is replaced, and the bundles it had are checked again one
// by one, so that only the one that ends a worker gets an error line (`worker_died`).
import { Worker } from "node:worker_threads";
import { summary } from "./worker.mjs";
import { jsonOut } from "./load.mjs";

const WORKER = new URL("./worker.mjs", import.meta.url);

/** Tasks a worker holds at once: the one it checks, and the next in its queue. */
const PER_WORKER = 2;

/** Result buffers kept for reuse (handed back to the workers), and the largest kept. */
const SPARES = 8;
const SPARE_MAX = 4 * 1024 * 1024;

/** Workers that may die holding no task, in a row, before the pool gives up. */
const IDLE_DEATHS = 8;

/** A task handed back, to be posted again (under a new id). */
const again = ({ batch, from, to }) => ({ batch, from, to });

/** How a worker ended, for the error line of the bundle it was checking. */
function ending(why) {
  if (typeof why === "number") return `exit code ${why}`;
  return `${why?.code ?? why?.name ?? "Error"}: ${why?.message ?? why}`;
}

export class OrderedPool {
  /**
   * `jobs` workers, `shared` their workerData (what every task shares), `take(result)`
   * called once per batch, in order, with `{parts, bundles}` (`parts` the JSON lines as
   * `{bytes}` Buffers, `bundles` a summary per bundle); it may return a promise, and the
   * batch counts against `window` until that resolves. After it, the parts' buffers go
   * back to the workers.
   */
  constructor({ jobs, shared, take, window = jobs * 4 }) {
    this.shared = shared;
    this.take = take;
    this.window = window;
    this.workers = new Set();
    this.queue = [];
    this.order = [];
    this.spares = [];
    this.nextId = 0;
    this.idleDeaths = 0;
    this.closed = false;
    this.stopped = false;
    this.failure = undefined;
    this.wakeSubmit = () => {};
    this.wakeWriter = () => {};
    for (let i = 0; i < jobs; i++) this.spawn();
    this.writer = this.write();
    this.taking = Promise.resolve();
  }

  /** Hands a batch (`{items, slab?, release?}`) to the pool; resolves once there is room for the next. */
  async submit(batch) {
    if (this.failure) throw this.failure;
    if (this.stopped) return;
    Object.assign(batch, { parts: [], covered: 0 });
    batch.done = new Promise((done) => (batch.complete = done));
    this.order.push(batch);
    this.queue.push({ batch, from: 0, to: batch.items.length });
    this.pump();
    this.wakeWriter();
    while (this.order.length >= this.window && !this.failure && !this.stopped) await new Promise((room) => (this.wakeSubmit = room));
    if (this.failure) throw this.failure;
  }

  /** Resolves once every batch submitted was taken; the workers are ended. */
  async finish() {
    this.closed = true;
    this.wakeWriter();
    try {
      await this.writer;
    } finally {
      await this.end();
    }
    if (this.failure) throw this.failure;
  }

  /** Stops at once: no more tasks, the workers ended; resolves once the batch being taken (written) is. */
  stop() {
    this.stopped = true;
    this.end();
    this.wakeAll();
    return this.taking;
  }

  end() {
    const ends = [...this.workers].map((w) => {
      w.gone = true;
      return w.thread.terminate();
    });
    this.workers.clear();
    return Promise.all(ends);
  }

  spawn() {
    const w = { thread: new Worker(WORKER, { workerData: { evidenceCheckPool: true, ...this.shared } }), held: [], gone: false, served: false };
    w.thread.on("message", (m) => this.reply(w, m));
    w.thread.on("error", (e) => this.died(w, e));
    w.thread.on("exit", (code) => this.died(w, code));
    this.workers.add(w);
  }

  /** Posts queued tasks to the workers holding the fewest. */
  pump() {
    while (this.queue.length && !this.stopped) {
      let best;
      for (const w of this.workers) if (w.held.length < PER_WORKER && (!best || w.held.length < best.held.length)) best = w;
      if (!best) return;
      const task = this.queue.shift();
      task.id = this.nextId++;
      best.held.push(task);
      const spare = this.spares.pop();
      const message = { id: task.id, items: task.batch.items.slice(task.from, task.to), slab: task.batch.slab, spare };
      best.thread.postMessage(message, spare ? [spare] : []);
    }
  }

  /** A task's results: a part of its batch; what a worker that trapped left goes back to the queue's head. */
  reply(w, m) {
    if (w.gone) return undefined; // a reply that came after its worker was given up: its tasks were handed on
    const task = w.held.shift();
    if (!task || task.id !== m.id) return this.fail(new Error(`worker pool: reply ${m.id} out of turn`));
    w.served = true;
    this.idleDeaths = 0;
    const out = m.out && { bytes: Buffer.from(m.out, 0, m.length), buffer: m.out };
    this.addPart(task.batch, task.from, m.done, out, m.bundles);
    if (m.retire) {
      this.queue.unshift(...this.drop(w).map(again));
      this.spawn();
    }
    if (task.from + m.done < task.to) this.queue.unshift({ batch: task.batch, from: task.from + m.done, to: task.to });
    this.pump();
    return undefined;
  }

  addPart(batch, from, count, out, bundles) {
    batch.parts.push({ from, out, bundles });
    batch.covered += count;
    if (batch.covered === batch.items.length) {
      batch.release?.();
      batch.complete();
    }
  }

  /** Ends a worker (it trapped, or it is gone) and takes back the tasks it held; undefined once it was. */
  drop(w) {
    if (w.gone) return undefined;
    w.gone = true;
    this.workers.delete(w);
    w.thread.terminate();
    const held = w.held;
    w.held = [];
    return held;
  }

  /**
   * A worker ended that was not told to: the task it was checking is checked again bundle
   * by bundle (a task of one bundle gets its error line), the next it held as it was.
   */
  died(w, why) {
    const held = this.drop(w);
    if (!held || this.stopped) return undefined;
    const [current, ...waiting] = held;
    this.queue.unshift(...waiting.map(again));
    if (current && current.to - current.from > 1) {
      const singles = [];
      for (let k = current.from; k < current.to; k++) singles.push({ batch: current.batch, from: k, to: k + 1 });
      this.queue.unshift(...singles);
    } else if (current) {
      const item = current.batch.items[current.from];
      const r = { ...item.tag, error: { code: "worker_died", message: `the worker thread checking this bundle stopped (${ending(why)}) before the check returned; the other bundles go on`, issues: [] } };
      const out = this.shared.json ? { bytes: Buffer.from(jsonOut(r, 0)) } : undefined;
      this.addPart(current.batch, current.from, 1, out, [summary(r, this.shared.artifacts)]);
    } else if (!w.served && ++this.idleDeaths > IDLE_DEATHS) {
      return this.fail(Object.assign(new Error(`the worker threads cannot start (${ending(why)})`), { code: "worker_died" }));
    }
    this.spawn();
    this.pump();
    return undefined;
  }

  fail(e) {
    this.failure ??= e;
    this.wakeAll();
  }

  /** Wakes whatever waits (a stop or a failure): the writer returns, a submit throws or returns. */
  wakeAll() {
    for (const b of this.order) b.complete();
    this.wakeSubmit();
    this.wakeWriter();
  }

  /** Takes the batches in order, each once all its parts are in. */
  async write() {
    for (;;) {
      while (this.order.length === 0) {
        if (this.closed || this.stopped || this.failure) return;
        await new Promise((more) => (this.wakeWriter = more));
      }
      const batch = this.order[0];
      await batch.done;
      if (this.failure || this.stopped) return;
      batch.parts.sort((a, b) => a.from - b.from);
      const result = { parts: batch.parts.flatMap((p) => (p.out ? [p.out] : [])), bundles: batch.parts.flatMap((p) => p.bundles) };
      this.taking = Promise.resolve(this.take(result));
      await this.taking;
      for (const p of result.parts) if (p.buffer && p.buffer.byteLength <= SPARE_MAX && this.spares.length < SPARES) this.spares.push(p.buffer);
      this.order.shift();
      this.wakeSubmit();
    }
  }
}
