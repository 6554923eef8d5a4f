#!/usr/bin/env node
// Checks a `kifview match` folder with ShogiHome's own record library, tsshogi (npm), as an
// independent reader of kifview's KIF (.kifu) and CSA (.csa) records.
//
//   npm install --prefix /tmp/tsshogi tsshogi@2.2.0
//   NODE_PATH=/tmp/tsshogi/node_modules node scripts/match_check_tsshogi.cjs DIR [MATCH.json]
//
// Each record is imported by tsshogi (importKIF / importCSA) and its main line replayed on a
// fresh tsshogi Position from the record's start: every move must be legal there
// (Position.isValidMove). The last move must be an ending tsshogi knows (resign, mate, timeout,
// foul win/lose, entering king, repetition, impass, max moves, draw); the winner is taken
// from it and the side to move. Prints one JSON line: files, wins per engine name, draws,
// endings, moves with a time (elapsedMs) and moves with an evaluation comment (評価値=).
// Given the match's JSON, the wins and draws must equal it. Exit 1 on any failure.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("tsshogi");

const LOSS_FOR_MOVER = new Set(["resign", "mate", "timeout", "foulLose", "loseByDefault"]);
const WIN_FOR_MOVER = new Set(["foulWin", "enteringOfKing", "winByDefault"]);
const DRAWS = new Set(["repetitionDraw", "impass", "maxMoves", "draw"]);

function fail(msg) {
  console.error(msg);
  process.exit(1);
}

function check(file) {
  const text = fs.readFileSync(file, "utf8");
  const record = file.endsWith(".csa") ? ts.importCSA(text) : ts.importKIF(text);
  if (record instanceof Error) fail(`${file}: tsshogi cannot read it: ${record.message}`);
  const pos = ts.Position.newBySFEN(record.initialPosition.sfen);
  if (!pos) fail(`${file}: no start position`);
  let timed = 0;
  let evals = 0;
  let ending = null;
  for (const node of record.moves.slice(1)) {
    if (node.move instanceof ts.Move) {
      if (ending) fail(`${file}: a move after the ending at ply ${node.ply}`);
      if (!pos.isValidMove(node.move)) fail(`${file}: ply ${node.ply} (${node.move.usi}) is illegal for tsshogi`);
      pos.doMove(node.move);
      if (node.elapsedMs > 0) timed += 1;
      if (/評価値=/.test(node.comment)) evals += 1;
    } else {
      ending = node.move.type;
    }
  }
  let winner;
  if (LOSS_FOR_MOVER.has(ending)) winner = pos.color === ts.Color.BLACK ? "white" : "black";
  else if (WIN_FOR_MOVER.has(ending)) winner = pos.color === ts.Color.BLACK ? "black" : "white";
  else if (DRAWS.has(ending)) winner = null;
  else fail(`${file}: no ending tsshogi reads as a result (${ending})`);
  const names = {
    black: ts.getBlackPlayerName(record.metadata),
    white: ts.getWhitePlayerName(record.metadata),
  };
  if (!names.black || !names.white) fail(`${file}: tsshogi reads no player names`);
  return { winner: winner && names[winner], names, ending, timed, evals };
}

function main() {
  const [dir, json] = process.argv.slice(2);
  if (!dir) fail("usage: match_check_tsshogi.cjs DIR [MATCH.json]");
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.(kifu?|csa)$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
  if (files.length === 0) fail(`${dir}: no records`);
  const out = { files: files.length, wins: {}, draws: 0, endings: {}, timed_moves: 0, eval_comments: 0 };
  for (const f of files) {
    const r = check(f);
    for (const n of [r.names.black, r.names.white]) out.wins[n] ??= 0;
    if (r.winner) out.wins[r.winner] += 1;
    else out.draws += 1;
    out.endings[r.ending] = (out.endings[r.ending] ?? 0) + 1;
    out.timed_moves += r.timed;
    out.eval_comments += r.evals;
  }
  console.log(JSON.stringify(out));
  if (json) {
    const m = JSON.parse(fs.readFileSync(json, "utf8"));
    const want = { [m.a.name]: m.a.wins, [m.b.name]: m.b.wins };
    for (const [n, w] of Object.entries(want)) {
      if ((out.wins[n] ?? 0) !== w) fail(`${n}: ${out.wins[n] ?? 0} wins in the files, ${w} in the JSON`);
    }
    if (out.draws !== m.draws) fail(`draws: ${out.draws} in the files, ${m.draws} in the JSON`);
    if (out.files !== m.games) fail(`games: ${out.files} files, ${m.games} in the JSON`);
  }
}

main();
