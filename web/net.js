// The connection to the game server that served the page (docs/protocol.md): one
// WebSocket at the page's origin, `hello` with the guest token kept in localStorage,
// commands with ids answered by promises, and reconnection by itself after a drop —
// the commands not yet answered are sent again (the server applies an `act` or `create`
// once, whatever the number of sends) and the owner re-opens its table with `since`.

const TOKEN = 'tabletop.online.token';
// Ids are unique for the player across reloads: a random prefix per page and a counter.
const PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');

export class Connection {
  // `handlers`: onWelcome(welcome, again), onMessage(msg, text), onState(state, detail).
  constructor(handlers) {
    this.handlers = handlers;
    this.url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
    this.ws = null;
    this.state = 'connecting'; // 'connecting', 'open' (after welcome), 'lost'
    this.player = null;
    this.pending = new Map(); // id -> { message, resolve, reject }
    this.counter = 0;
    this.retries = 0;
    this.welcomed = false; // a welcome came on some connection of this page
    this.timer = null;
  }

  connect() {
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: 'hello', protocol: 1 };
      const token = localStorage.getItem(TOKEN);
      if (token) hello.token = token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.receive(e.data);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.lost(e.code === 1008 || e.code === 1009 ? `the server closed the connection: ${e.reason || e.code}` : null);
    };
    // An error is always followed by close, which reconnects.
    ws.onerror = () => {};
  }

  lost(reason) {
    const again = this.state === 'open' || this.welcomed;
    this.state = 'lost';
    // 0.5 s, 1 s, 2 s, then every 4 s: a server restart takes a few seconds.
    const delay = Math.min(4000, 500 * 2 ** Math.min(this.retries, 3));
    this.retries++;
    this.handlers.onState('lost', { reason, again, delay });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'welcome') {
      if (msg.token) localStorage.setItem(TOKEN, msg.token);
      const again = this.welcomed;
      this.player = msg.player;
      this.state = 'open';
      this.welcomed = true;
      this.retries = 0;
      // What was sent and not answered goes again, in order, before anything new.
      for (const p of this.pending.values()) this.ws.send(JSON.stringify(p.message));
      this.handlers.onState('open', { again });
      this.handlers.onWelcome(msg, again);
      return;
    }
    if (msg.type === 'error' && !this.welcomedHere() && msg.code === 'bad_token') {
      // The server does not know this token (another server, a new database): a new guest.
      localStorage.removeItem(TOKEN);
      this.handlers.onState('new_guest', {});
      this.ws.send(JSON.stringify({ type: 'hello', protocol: 1 }));
      return;
    }
    const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
    if (p) {
      this.pending.delete(msg.id);
      if (msg.type === 'error') p.reject(Object.assign(new Error(msg.message || msg.code), { code: msg.code }));
      else p.resolve(msg);
      return;
    }
    this.handlers.onMessage(msg, text);
  }

  welcomedHere() {
    return this.state === 'open';
  }

  // Sends a command; resolves to its answer, rejects with the server's error. A command
  // given while the connection is down waits for the next one.
  request(message) {
    const id = `${PREFIX}-${++this.counter}`;
    const full = { ...message, id };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { message: full, resolve, reject });
      if (this.state === 'open' && this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(full));
    });
  }

  // Sends a command whose answer nobody waits for (errors go to onMessage's owner).
  fire(message, onError) {
    this.request(message).catch(onError);
  }
}
