// A misbehaving "agent" for test/node/bridge-orphans.test.ts: it starts a child in its own process
// group that ignores SIGTERM, and a `setsid -f` (double-forked) daemon that ignores SIGTERM too and
// leaves the agent's process tree and group at once. Each writes its pid to the file given as the
// first argument. The agent itself exits on SIGTERM, as a well-behaved one does.
import { spawn } from 'node:child_process';

const file = process.argv[2];
const stubborn = (tag) => `trap "" TERM; echo ${tag} $$ >> '${file}'; exec sleep 100000`;
spawn('sh', ['-c', stubborn('group')], { stdio: 'ignore' });
spawn('setsid', ['-f', 'sh', '-c', stubborn('setsid')], { stdio: 'ignore' });
setInterval(() => {}, 1_000_000);
