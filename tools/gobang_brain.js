// A Gomocup (pbrain) wrapper around lihongxun945/gobang's own search, to measure hard against
// it in the arena; not part of the game. It plays as gobang's web page does by default: depth 6,
// its VCT, its opening book in 'strength' mode, no time limit (give it `--time2 120`).
//
// Built outside this repository, next to gobang's sources (measured at commit 44739e3):
//   cp tools/gobang_brain.js GOBANG/brain.js && cd GOBANG && npm install esbuild
//   npx esbuild brain.js --bundle --platform=node --outfile=pbrain-gobang.cjs
//   printf '#!/bin/sh\nexec node %s/pbrain-gobang.cjs\n' "$PWD" > pbrain-gobang && chmod +x pbrain-gobang
// then: tools/ab.py REV --against GOBANG/pbrain-gobang --games 80 --time 1 --time2 120 --jobs 1
import readline from 'readline';
import Board from './src/ai/board';
import { minmax } from './src/ai/candidate/minmax';

const say = (line) => process.stdout.write(line + '\r\n');
console.log = (...args) => process.stderr.write(args.join(' ') + '\n'); // its prints off the protocol
const DEPTH = Number(process.env.GOBANG_DEPTH || 6);
let size = 15;
let board = new Board(size);
let stones = null; // the x,y,who lines of a BOARD block while it is read

const think = () => {
  const [, move] = minmax(board, board.role, DEPTH, true, { openingBookMode: 'strength' });
  board.put(move[0], move[1]);
  say(`${move[1]},${move[0]}`); // gobang's [row, col] is the protocol's y,x
};

readline.createInterface({ input: process.stdin }).on('line', (raw) => {
  const line = raw.trim();
  const word = line.split(/\s+/)[0].toUpperCase();
  if (stones !== null) {
    if (word !== 'DONE') {
      stones.push(line.split(',').map(Number));
      return;
    }
    board = new Board(size);
    const me = stones.length % 2 === 0 ? 1 : -1; // gobang's colour of the side to move
    for (const [x, y, who] of stones) board.put(y, x, who === 1 ? me : -me);
    board.role = me;
    stones = null;
    think();
  } else if (word === 'START') {
    size = Number(line.split(/\s+/)[1]);
    board = new Board(size);
    say('OK');
  } else if (word === 'RESTART') {
    board = new Board(size);
    say('OK');
  } else if (word === 'BEGIN') {
    think();
  } else if (word === 'TURN') {
    const [x, y] = line.split(/\s+/)[1].split(',').map(Number);
    board.put(y, x);
    think();
  } else if (word === 'BOARD') {
    stones = [];
  } else if (word === 'ABOUT') {
    say('name="gobang", version="3.1.0", author="lihongxun945"');
  } else if (word === 'END') {
    process.exit(0);
  }
});
