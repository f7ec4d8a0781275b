// A headless Minecraft Classic bot for the Boxel tests, built on the npm library
// minecraft-classic-protocol (protocol 7) and its CPE companion minecraft-classic-protocol-extension.
//
// Usage: node bot.js '<json options>'
//   {"host": "127.0.0.1", "port": 25566, "name": "bot1", "cpe": true,
//    "level_file": "/tmp/level.bin",      // where the received level's blocks are written (ungzipped, 4-byte volume first)
//    "quit_after_chunks": null,           // leave after this many level chunks (a disconnect mid transfer)
//    "steps": [...]}                      // run in order once the level is in (see STEPS below)
// Prints one JSON object a line on stdout: {"event": ..., ...}. Exits 0 after the "quit" step or at the end.
'use strict';

const fs = require('fs');
const net = require('net');
const zlib = require('zlib');
const mc = require('minecraft-classic-protocol');
const cpe = require('minecraft-classic-protocol-extension');

const options = JSON.parse(process.argv[2]);
const EXTENSIONS = options.extensions || [
  // The CPE extensions this library can parse (ExtEntityPositions changes packet sizes it does not know).
  ['CustomBlocks', 1], ['HeldBlock', 1], ['ExtPlayerList', 2], ['TwoWayPing', 1], ['BlockDefinitions', 1],
];

function say(event, fields) {
  process.stdout.write(JSON.stringify(Object.assign({event: event, t: Date.now()}, fields || {})) + '\n');
}

const client = new mc.Client(false, options.cpe ? cpe.protocol : {});
client.on('connect', () => {
  client.write('player_identification', {
    protocol_version: 7, username: options.name, verification_key: '', unused: options.cpe ? 0x42 : 0,
  });
});
client.on('error', (err) => say('error', {message: String(err && err.message || err)}));
client.on('end', () => { say('end'); finish(); });

let levelParts = [];
let chunks = 0;
let level = null;        // Buffer of block ids, (y * depth + z) * width + x
let size = null;
let position = null;     // [x, y, z, yaw, pitch] in 1/32 block, y at the eye
const waiters = [];      // pending conditions of wait_for steps

client.on('ext_info', (packet) => {
  say('ext_info', {app: packet.app_name, count: packet.extension_count});
  client.write('ext_info', {app_name: 'BoxelTestBot', extension_count: EXTENSIONS.length});
  for (const [name, version] of EXTENSIONS) client.write('ext_entry', {ext_name: name, version: version});
});
client.on('ext_entry', (packet) => say('ext_entry', {name: packet.ext_name, version: packet.version}));
client.on('custom_block_support_level', (packet) => {
  say('custom_block_support_level', {level: packet.support_level});
  client.write('custom_block_support_level', {support_level: 1});
});
client.on('define_block', (packet) => say('define_block', {id: packet.block_id & 0xff, name: packet.name}));
client.on('server_identification', (packet) => say('server_identification', {name: packet.server_name, motd: packet.server_motd}));
client.on('level_initialize', () => say('level_initialize'));
client.on('level_data_chunk', (packet) => {
  levelParts.push(Buffer.from(packet.chunk_data));
  chunks += 1;
  if (options.quit_after_chunks && chunks >= options.quit_after_chunks) {
    say('quit_mid_level', {chunks: chunks, percent: packet.percent_complete});
    client.socket.destroy();
    process.exit(0);
  }
});
client.on('level_finalize', (packet) => {
  const raw = zlib.gunzipSync(Buffer.concat(levelParts));
  const volume = raw.readInt32BE(0);
  level = raw.subarray(4);
  size = [packet.x_size, packet.y_size, packet.z_size];
  if (options.level_file) fs.writeFileSync(options.level_file, raw);
  say('level', {size: size, volume: volume, chunks: chunks, bytes: level.length});
});
client.on('spawn_player', (packet) => {
  if (packet.player_id === -1) {
    position = [packet.x, packet.y, packet.z, packet.yaw, packet.pitch];
    say('spawned', {at: position.slice(0, 3)});
    runSteps();
  } else {
    say('spawn_player', {id: packet.player_id, name: packet.player_name, at: [packet.x, packet.y, packet.z]});
  }
});
client.on('add_entity_2', (packet) => say('spawn_player', {id: packet.entity_id, name: packet.in_game_name, at: [packet.x, packet.y, packet.z]}));
client.on('add_player_name', (packet) => say('player_name', {id: packet.name_id, name: packet.player_name}));
client.on('remove_player_name', (packet) => say('remove_player_name', {id: packet.name_id}));
client.on('despawn_player', (packet) => say('despawn_player', {id: packet.player_id}));
client.on('player_teleport', (packet) => {
  if (packet.player_id === -1) {
    position = [packet.x, packet.y, packet.z, packet.yaw, packet.pitch];
    say('teleported', {at: position.slice(0, 3)});
  }
});
client.on('set_block', (packet) => {
  if (level && size) level[(packet.y * size[2] + packet.z) * size[0] + packet.x] = packet.block_type;
  say('set_block', {at: [packet.x, packet.y, packet.z], block: packet.block_type});
  check();
});
const lastMessages = [];
client.on('message', (packet) => { lastMessages.push(packet.message); say('message', {text: packet.message}); check(); });
client.on('two_way_ping', (packet) => {
  if (packet.direction === 1) {
    client.write('two_way_ping', {direction: 1, data: packet.data});  // the echo the server waits for
    say('ping_echoed', {data: packet.data});
  } else {
    say('ping_answer', {data: packet.data});
  }
});
client.on('disconnect_player', (packet) => say('disconnected', {reason: packet.disconnect_reason}));
client.on('hold_this', (packet) => say('hold_this', {block: packet.block_to_hold & 0xff}));

function sendPosition(x, y, z) {
  position = [x, y, z, position ? position[3] : 0, position ? position[4] : 0];
  client.write('position', {player_id: 255, x: x, y: y, z: z, yaw: position[3], pitch: position[4]});
}

function blockAt(x, y, z) {
  return level[(y * size[2] + z) * size[0] + x];
}

function check() {
  for (let i = waiters.length - 1; i >= 0; i--) {
    if (waiters[i].test()) { const w = waiters.splice(i, 1)[0]; w.done(); }
  }
}

function waitFor(test, ms) {
  return new Promise((resolve) => {
    if (test()) return resolve(true);
    const timer = setTimeout(() => { waiters.splice(waiters.indexOf(entry), 1); resolve(false); }, ms);
    const entry = {test: test, done: () => { clearTimeout(timer); resolve(true); }};
    waiters.push(entry);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let started = false;

// STEPS: each {"do": ...}
//   wait {ms}; position {at: [x, y, z]} (1/32 block, y at the eye); walk {path: [[x, y, z], ...], ms}
//   set_block {at, mode, block}; chat {text}; wait_chat {contains, ms}; wait_block {at, block, ms};
//   report_block {at}; quit
async function runSteps() {
  if (started) return;
  started = true;
  for (const step of options.steps || []) {
    switch (step.do) {
      case 'wait': await sleep(step.ms); break;
      case 'position': sendPosition(...step.at); say('sent_position', {at: step.at}); break;
      case 'walk':
        for (const at of step.path) { sendPosition(...at); await sleep(step.ms || 50); }
        say('walked', {packets: step.path.length});
        break;
      case 'set_block':
        client.write('set_block', {x: step.at[0], y: step.at[1], z: step.at[2], mode: step.mode, block_type: step.block});
        say('sent_set_block', {at: step.at, mode: step.mode, block: step.block});
        break;
      case 'chat': client.write('message', {unused: 0xff, message: step.text}); break;
      case 'wait_chat': {
        const seen = await waitFor(() => lastMessages.some((text) => text.includes(step.contains)), step.ms || 5000);
        say('waited_chat', {contains: step.contains, seen: seen});
        break;
      }
      case 'wait_block': {
        const seen = await waitFor(() => blockAt(...step.at) === step.block, step.ms || 5000);
        say('waited_block', {at: step.at, block: blockAt(...step.at), seen: seen});
        break;
      }
      case 'report_block': say('block', {at: step.at, block: blockAt(...step.at)}); break;
      case 'quit': say('quit'); client.socket.end(); await sleep(200); process.exit(0);
      default: say('error', {message: 'unknown step ' + step.do});
    }
  }
  say('steps_done');
}

let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  setTimeout(() => process.exit(0), 50);
}

client.setSocket(net.connect(options.port, options.host));
