'use strict';
// The emulator's runner of one action version's code. It loads the code
// (argv[2]) once, with the name of the handler it exports (argv[3]:
// onExecuteCustomTokenExchange or onExecutePostLogin), then executes it for
// each request: one JSON line on standard input, one JSON answer line on
// file descriptor 3. The emulator sends the next request only once the
// answer of the last one has come, so this process runs one execution at a
// time. What the code prints (console.log, standard output and error) goes
// to the emulator's log, never into the answers.
//
// The api object records the calls the code makes; the emulator applies
// their effects once the code has returned. The cache is the emulator's:
// each request brings its records, and the answer lists the writes.

const fs = require('fs');
const readline = require('readline');
const { AsyncLocalStorage } = require('async_hooks');

const ANSWERS = 3;

function answer(obj) {
  fs.writeSync(ANSWERS, JSON.stringify(obj) + '\n');
}

function describe(err) {
  if (err instanceof Error) {
    return { name: err.name, message: String(err.message) };
  }
  return { name: typeof err, message: String(err) };
}

const HANDLER = process.argv[3] || 'onExecuteCustomTokenExchange';
const POST_LOGIN = HANDLER === 'onExecutePostLogin';

let handler;
let loadError;
try {
  const mod = require(process.argv[2]);
  handler = mod && mod[HANDLER];
  if (typeof handler !== 'function') {
    loadError = { name: 'TypeError', message: `The action does not export ${HANDLER} as a function.` };
  }
} catch (err) {
  loadError = describe(err);
}
answer({ ready: !loadError, error: loadError });

// Cache limits (the platform's documented Actions cache limits).
const CACHE_MAX_ENTRIES = 20;
const CACHE_MAX_KEY_BYTES = 64;
const CACHE_MAX_VALUE_BYTES = 4096;
const CACHE_MAX_TOTAL_BYTES = 8192;
const CACHE_DEFAULT_TTL_MS = 15 * 60 * 1000;
const CACHE_MAX_TTL_MS = 24 * 60 * 60 * 1000;

function requireString(name, value) {
  if (typeof value !== 'string') {
    throw new TypeError(`${name} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
}

function makeCache(records, writes) {
  const live = new Map();
  const now = Date.now();
  for (const [key, rec] of Object.entries(records || {})) {
    if (rec.expires_at > now) {
      live.set(key, { value: rec.value, expires_at: rec.expires_at });
    }
  }
  const size = () => {
    let total = 0;
    for (const [k, r] of live) total += Buffer.byteLength(k) + Buffer.byteLength(r.value);
    return total;
  };
  return {
    get(key) {
      const rec = live.get(String(key));
      if (!rec || rec.expires_at <= Date.now()) return undefined;
      return { value: rec.value, expires_at: rec.expires_at };
    },
    set(key, value, options) {
      key = String(key);
      if (typeof value !== 'string') return { type: 'error', code: 'INVALID_VALUE' };
      if (Buffer.byteLength(key) > CACHE_MAX_KEY_BYTES) return { type: 'error', code: 'KEY_TOO_LARGE' };
      if (Buffer.byteLength(value) > CACHE_MAX_VALUE_BYTES) return { type: 'error', code: 'VALUE_TOO_LARGE' };
      const now = Date.now();
      let expires = now + CACHE_DEFAULT_TTL_MS;
      const o = options || {};
      if (typeof o.ttl === 'number' || typeof o.expires_at === 'number') {
        const limits = [];
        if (typeof o.ttl === 'number') limits.push(now + o.ttl);
        if (typeof o.expires_at === 'number') limits.push(o.expires_at);
        expires = Math.min(...limits);
      }
      expires = Math.min(expires, now + CACHE_MAX_TTL_MS);
      const previous = live.get(key);
      live.set(key, { value, expires_at: expires });
      if (live.size > CACHE_MAX_ENTRIES || size() > CACHE_MAX_TOTAL_BYTES) {
        if (previous) live.set(key, previous);
        else live.delete(key);
        return { type: 'error', code: 'CACHE_FULL' };
      }
      writes.push({ op: 'set', key, value, expires_at: expires });
      return { type: 'success' };
    },
    delete(key) {
      key = String(key);
      live.delete(key);
      writes.push({ op: 'delete', key });
      return { type: 'success' };
    },
  };
}

// The post-login api object: what of it the emulator models (the
// emulator's guide lists it). Another member is missing, so that code
// calling it fails as an action that throws.
function makePostLoginApi(calls, cache) {
  const api = {};
  const record = (name, args) => {
    calls.push({ call: name, args });
    return api;
  };
  const claims = (which) => ({
    setCustomClaim(name, value) {
      requireString('name', name);
      return record(which + '.setCustomClaim', [name, value === undefined ? null : value]);
    },
  });
  api.access = {
    deny(reason) {
      requireString('reason', reason);
      return record('access.deny', [reason]);
    },
  };
  api.accessToken = claims('accessToken');
  api.idToken = claims('idToken');
  api.user = userApi(record);
  api.cache = cache;
  return api;
}

function userApi(record) {
  return {
    setAppMetadata(name, value) {
      requireString('name', name);
      return record('user.setAppMetadata', [name, value === undefined ? null : value]);
    },
    setUserMetadata(name, value) {
      requireString('name', name);
      return record('user.setUserMetadata', [name, value === undefined ? null : value]);
    },
  };
}

function makeApi(calls, cache) {
  if (POST_LOGIN) return makePostLoginApi(calls, cache);
  const api = {};
  const record = (name, args) => {
    calls.push({ call: name, args });
    return api;
  };
  api.access = {
    deny(code, reason) {
      requireString('code', code);
      requireString('reason', reason);
      return record('access.deny', [code, reason]);
    },
    rejectInvalidSubjectToken(reason) {
      requireString('reason', reason);
      return record('access.rejectInvalidSubjectToken', [reason]);
    },
  };
  api.authentication = {
    setUserById(userId) {
      requireString('user_id', userId);
      return record('authentication.setUserById', [userId]);
    },
    setUserByConnection(connectionName, userAttributes, options) {
      requireString('connection_name', connectionName);
      if (userAttributes === null || typeof userAttributes !== 'object' || Array.isArray(userAttributes)) {
        throw new TypeError('user_attributes must be an object');
      }
      if (options === null || typeof options !== 'object' || Array.isArray(options)) {
        throw new TypeError('options must be an object');
      }
      return record('authentication.setUserByConnection', [connectionName, userAttributes, options]);
    },
    setOrganization(organization) {
      requireString('organization', organization);
      return record('authentication.setOrganization', [organization]);
    },
    setActor(actor) {
      return record('authentication.setActor', [actor === undefined ? null : actor]);
    },
  };
  api.user = userApi(record);
  api.cache = cache;
  return api;
}

// The execution each callback belongs to: the timers and promises an
// execution starts keep its id, also once it has returned.
const executions = new AsyncLocalStorage();
let current = null;

function fail(id, kind, err) {
  answer({ id, error: Object.assign({ kind }, describe(err)) });
}

// An error thrown outside the awaited code (a timer, a stray promise). One
// of the running execution ends this process: that execution failed, as a
// crash. One of an execution that has already answered fails no other: it
// goes to the log, and the process asks to take no more executions.
function uncaught(err) {
  if (current !== null && executions.getStore() === current) {
    fail(current, 'crash', err);
    process.exit(70);
  }
  const d = describe(err);
  process.stderr.write(`an error after its execution had ended: ${d.name}: ${d.message}\n`);
  answer({ retire: true });
}
process.on('uncaughtException', uncaught);
process.on('unhandledRejection', uncaught);

// A process ended by an execution that has answered (process.exit in its
// timer) while another runs: the running one did not fail, and the
// emulator runs it again in another worker.
process.on('exit', () => {
  if (current !== null && executions.getStore() !== current) answer({ id: current, foreign: true });
});

// The timers and immediates pending in the idle worker. An execution that
// leaves more behind has work still to run: the emulator stops its worker
// once it has answered, so that this work meets no other execution.
// (Sockets are not counted: fetch keeps its connections open; it also
// leaves an immediate, gone at the next turn, which settled() waits for.)
function settled() {
  return new Promise((resolve) => setImmediate(resolve));
}
function pending() {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length;
}
const IDLE_PENDING = pending();

async function execute(req) {
  const calls = [];
  const writes = [];
  const api = makeApi(calls, makeCache(req.cache, writes));
  current = req.id;
  answer({ id: req.id, started: true });
  try {
    await executions.run(req.id, () => handler(req.event, api));
    await settled();
    answer({ id: req.id, calls, cache: writes, leftover: pending() > IDLE_PENDING });
  } catch (err) {
    await settled();
    answer({ id: req.id, calls, cache: writes, leftover: pending() > IDLE_PENDING, error: Object.assign({ kind: 'thrown' }, describe(err)) });
  } finally {
    current = null;
  }
}

if (!loadError) {
  // In the order the requests came (the emulator sends one at a time).
  let queue = Promise.resolve();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (err) {
      return;
    }
    queue = queue.then(() => execute(req));
  });
  // The emulator has stopped, or died: no execution's answer is awaited.
  lines.on('close', () => process.exit(0));
}
