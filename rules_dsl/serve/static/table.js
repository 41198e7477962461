// The table's pages: create a game, and on a seat's page send decisions and follow the game.
// Plain JavaScript, no build step: the server renders the HTML, this only moves it around.
"use strict";

async function api(method, url, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: "the server sent no JSON (" + response.status + ")" }));
  if (!response.ok) throw new Error(data.error || String(response.status));
  return data;
}

function say(text) {
  const box = document.getElementById("message");
  if (box) box.textContent = text;
}

// Bring the page's `old` element to the server's `fresh` one, keeping every node that did not
// change: the cards that stay where they were are not drawn again, so a move repaints only
// what it changed. A details element keeps whether the reader opened it.
function morph(old, fresh) {
  if (old.isEqualNode(fresh)) return;
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) {
    old.replaceWith(fresh);
    return;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) {
    if (!fresh.hasAttribute(a.name) && !(a.name === "open" && old.nodeName === "DETAILS")) old.removeAttribute(a.name);
  }
  for (const a of fresh.attributes) {
    if (a.name === "open" && old.nodeName === "DETAILS") continue;
    if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  }
  if (old.nodeName === "BUTTON") old.disabled = fresh.hasAttribute("disabled");
  // children side by side; then the new ones added (a log's lines, a card drawn) or the
  // old ones beyond removed
  const olds = [...old.childNodes], news = [...fresh.childNodes];
  const both = Math.min(olds.length, news.length);
  for (let i = 0; i < both; i++) morph(olds[i], news[i]);
  for (let i = both; i < olds.length; i++) olds[i].remove();
  if (news.length > both) old.append(...news.slice(both));
}

// The seats' clocks: the server sends each seat's time used; the running ones tick here.
let clockFrom = Date.now();
function tickClocks() {
  const spent = (Date.now() - clockFrom) / 1000;
  document.querySelectorAll("#clock > span.running").forEach((span) => {
    const whole = Math.floor(parseFloat(span.dataset.used) + spent);
    const h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, s = String(whole % 60).padStart(2, "0");
    const text = h ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
    const shown = span.querySelector(".time");
    if (shown.textContent !== text) shown.textContent = text;
  });
}
setInterval(tickClocks, 1000);

// Wait for the game's next change (a long poll on its version) and call `redraw`, for ever.
async function followGame(game, currentVersion, redraw, isBusy) {
  for (;;) {
    try {
      const known = encodeURIComponent(currentVersion());
      const data = await api("GET", "/api/games/" + game + "/version?known=" + known);
      if (data.version !== currentVersion() && !isBusy()) await redraw();
    } catch (err) {
      say("lost the server: " + err.message);
      await new Promise((done) => setTimeout(done, 2000));
    }
    if (isBusy()) await new Promise((done) => setTimeout(done, 100));
  }
}

// -- the seat's page --------------------------------------------------------------------

function seatPage(main) {
  const game = main.dataset.game, seat = main.dataset.seat, token = main.dataset.token;
  const base = "/games/" + game + "/seat/" + seat;
  let busy = false;

  // the title says whose turn it is; a notification when it becomes yours (if allowed)
  function announce(before) {
    const panel = document.getElementById("panel");
    document.title = panel.dataset.title;
    if (panel.dataset.mine === "1" && before !== "1" && document.hidden && window.Notification &&
        Notification.permission === "granted") {
      new Notification(panel.dataset.title);
    }
  }

  async function refresh() {
    const response = await fetch(base + "/panel", { headers: { Authorization: "Bearer " + token } });
    if (response.ok) draw(await response.text());
  }

  function draw(html) {
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const old = document.getElementById("panel");
    const before = old.dataset.mine;
    morph(old, holder.querySelector("#panel"));
    clockFrom = Date.now();
    const box = document.getElementById("logbox");
    if (box) box.scrollTop = box.scrollHeight;
    announce(before);
  }

  async function send(url, body) {
    if (busy) return;
    busy = true;
    main.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      await api("POST", url, token, body);
      await refresh();
    } catch (err) {
      await refresh();
      say(err.message);
    } finally {
      busy = false;
    }
  }

  // a decision, answered with this seat's panel drawn again (one round trip)
  async function decide(option) {
    if (busy) return;
    busy = true;
    main.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      const response = await fetch("/api/games/" + game + "/decisions", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/html", Authorization: "Bearer " + token },
        body: JSON.stringify({ option }),
      });
      if (response.ok) {
        draw(await response.text());
      } else {
        const data = await response.json().catch(() => ({ error: "the server sent no JSON (" + response.status + ")" }));
        await refresh();
        say(data.error || String(response.status));
      }
    } catch (err) {
      say(err.message);
    } finally {
      busy = false;
    }
  }

  const zoom = document.getElementById("zoom");
  zoom.addEventListener("click", () => (zoom.hidden = true));
  main.addEventListener("click", (event) => {
    if (window.Notification && Notification.permission === "default") Notification.requestPermission();
    const card = event.target.closest("figure.card");
    if (card) {
      zoom.querySelector("img").src = card.querySelector("img").src;
      zoom.querySelector("img").alt = card.title;
      zoom.hidden = false;
      return;
    }
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.option !== undefined) {
      decide(button.dataset.option);
    } else if (button.id === "undo") {
      send("/api/games/" + game + "/undo");
    } else if (button.id === "rematch") {
      api("POST", "/api/games/" + game + "/rematch", token).then((data) => (location.href = data.url), (err) => say(err.message));
    }
  });

  // others' moves: a long poll that the server answers as soon as the game's version (keyed
  // by its decisions) differs from the one shown, then the panel is brought up to date
  followGame(game, () => document.getElementById("panel").dataset.version, refresh, () => busy);

  // chat, names and presence: polled every two seconds (each ask marks this seat present)
  const chat = document.getElementById("chat");
  async function listen() {
    for (;;) {
      try {
        const last = chat.lastElementChild ? chat.lastElementChild.dataset.n : undefined;
        const data = await api("GET", "/api/games/" + game + "/chat" + (last === undefined ? "" : "?after=" + last), token);
        for (const line of data.lines) {
          const li = document.createElement("li"), who = document.createElement("b");
          li.dataset.n = line.n;
          who.textContent = line.name;
          li.append(who, ": " + line.text); // text, never HTML
          chat.appendChild(li);
        }
        if (data.lines.length) chat.scrollTop = chat.scrollHeight;
        const present = document.getElementById("present");
        present.replaceChildren(...data.names.map((name, i) => {
          const span = document.createElement("span");
          span.className = data.present[i] ? "here" : "away";
          span.textContent = name;
          return span;
        }));
      } catch (err) {
        /* the long poll above says when the server is lost */
      }
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
  listen();
  document.getElementById("say").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = event.target.elements["text"];
    try {
      await api("POST", "/api/games/" + game + "/chat", token, { text: input.value });
      input.value = "";
    } catch (err) {
      say(err.message);
    }
  });
  const join = document.getElementById("join");
  if (join) {
    join.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("POST", "/api/games/" + game + "/name", token, { name: join.elements["name"].value });
        join.remove();
        await refresh();
      } catch (err) {
        say(err.message);
      }
    });
  }
  const box = document.getElementById("logbox");
  if (box) {
    if (window.matchMedia("(max-width: 760px)").matches) box.open = false; // phones: the log folded
    box.scrollTop = box.scrollHeight;
  }
  announce("");
}

// -- a spectator's page (a replay without a step follows the game live) --------------------

function watchPage(main) {
  if (main.dataset.live !== "1") return;
  async function redraw() {
    const response = await fetch(main.dataset.part);
    if (!response.ok) return;
    const holder = document.createElement("div");
    holder.innerHTML = await response.text();
    morph(document.getElementById("watched"), holder.querySelector("#watched"));
    document.title = document.getElementById("watched").dataset.title;
    clockFrom = Date.now();
    const box = document.getElementById("logbox");
    if (box) box.scrollTop = box.scrollHeight;
  }
  followGame(main.dataset.game, () => document.getElementById("watched").dataset.version, redraw, () => false);
}

// -- the lobby: take an open seat -----------------------------------------------------------

function lobby(list) {
  list.addEventListener("submit", async (event) => {
    event.preventDefault();
    const item = event.target.closest("li.open-game");
    const name = event.target.elements["name"].value.trim();
    try {
      const data = await api("POST", "/api/games/" + item.dataset.game + "/join", null, name ? { name } : {});
      location.href = data.url;
    } catch (err) {
      say(err.message);
    }
  });
}

// -- the table page ---------------------------------------------------------------------

function tablePage(form) {
  const seats = document.getElementById("seats");
  const row = document.getElementById("seat-row");
  const players = form.elements["players"];
  const searchBots = row.dataset.search.split(",");

  function drawSeats() {
    const n = Math.max(1, Math.min(16, parseInt(players.value, 10) || 1));
    while (seats.querySelectorAll(".seat").length < n) {
      const seat = row.content.firstElementChild.cloneNode(true);
      const i = seats.querySelectorAll(".seat").length;
      seat.querySelector(".label").textContent = "Player " + (i + 1);
      seat.querySelector(".kind").value = i === 0 ? "human" : "random";
      seats.appendChild(seat);
    }
    const all = seats.querySelectorAll(".seat");
    for (let i = n; i < all.length; i++) all[i].remove();
  }
  players.addEventListener("input", drawSeats);
  drawSeats();

  const pack = form.elements["pack"];
  const choices = document.getElementById("variant-choices");
  function describe() {
    const o = pack.selectedOptions[0];
    if (!o) return;
    // the pack's variants, each a checkbox
    choices.querySelectorAll("label").forEach((l) => l.remove());
    for (const name of o.dataset.list.split(",").filter((v) => v)) {
      const label = document.createElement("label"), box = document.createElement("input");
      box.type = "checkbox";
      box.className = "variant";
      box.value = name;
      label.append(box, " " + name);
      choices.appendChild(label);
    }
    document.getElementById("about").textContent =
      "players " + o.dataset.players + "; variants: " + o.dataset.variants + "; scenarios: " + o.dataset.scenarios;
  }
  pack.addEventListener("change", describe);
  describe();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const list = (text) => text.split(",").map((s) => s.trim()).filter((s) => s);
    const variants = Array.from(choices.querySelectorAll("input.variant:checked")).map((b) => b.value);
    list(form.elements["variants"].value).forEach((v) => variants.includes(v) || variants.push(v));
    list(form.elements["scenario"].value).forEach((s) => variants.push("scenario=" + s));
    const body = {
      pack: form.elements["pack"].value,
      players: parseInt(players.value, 10),
      variants,
      seats: Array.from(seats.querySelectorAll(".seat")).map((s) => {
        const kind = s.querySelector(".kind").value, budget = s.querySelector(".budget").value.trim();
        return searchBots.includes(kind) && budget ? kind + ":" + budget : kind;
      }),
    };
    if (form.elements["seed"].value !== "") body.seed = parseInt(form.elements["seed"].value, 10);
    say("");
    try {
      const data = await api("POST", "/api/games", null, body);
      document.getElementById("created").hidden = false;
      document.getElementById("created-id").textContent = data.id;
      const links = document.getElementById("links");
      links.innerHTML = "";
      for (const [seat, info] of Object.entries(data.seats)) {
        const li = document.createElement("li"), a = document.createElement("a");
        a.href = info.url;
        a.textContent = new URL(info.url, location.href).href;
        a.className = "seat-link";
        a.dataset.seat = seat;
        li.append("Player " + seat + ": ", a);
        links.appendChild(li);
      }
    } catch (err) {
      say(err.message);
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const main = document.getElementById("seat");
  if (main) seatPage(main);
  const form = document.getElementById("new-game");
  if (form) tablePage(form);
  const watched = document.getElementById("replay");
  if (watched) watchPage(watched);
  const open = document.querySelector("ul.open-games");
  if (open) lobby(open);
});
