// A misbehaving "agent" for test/node/bridge-orphans.test.ts: it starts three children that ignore
// SIGTERM and would each outlive it: one in its process group; one in its group with an empty
// environment (`env -i`), so only the group finds it; and a `setsid -f` (double-forked) daemon that
// leaves the agent's process tree, group and session at once, so only its environment finds it. Each
// writes `<tag> <pid>` to the file given as the first argument. The agent itself exits on SIGTERM,
// as a well-behaved one does.
import { spawn } from 'node:child_process';

const file = process.argv[2];
const stubborn = (tag) => `trap "" TERM; echo ${tag} $$ >> '${file}'; exec sleep 100000`;
spawn('sh', ['-c', stubborn('group')], { stdio: 'ignore' });
spawn('env', ['-i', '/bin/sh', '-c', stubborn('envless')], { stdio: 'ignore' });
spawn('setsid', ['-f', 'sh', '-c', stubborn('setsid')], { stdio: 'ignore' });
setInterval(() => {}, 1_000_000);
