/**
 * A stdio "agent" that dies at start, as a misconfigured one does: it writes two lines on stderr and
 * exits with code 3. By default it first waits for the client's first message (so it dies while
 * `initialize` is unanswered); with `--at-once` it does not wait.
 */
const fail = () => {
  process.stderr.write('exit-agent: starting\nexit-agent: cannot start: SILO_TEST_KEY is not set\n');
  process.exit(3);
};
if (process.argv.includes('--at-once')) fail();
else process.stdin.once('data', fail);
