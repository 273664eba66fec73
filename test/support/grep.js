// SILO_GREP for the browser suite. Mocha's own `grep` leaves unselected tests unrun, and the test
// runner's mocha adapter reports a test that neither passed nor is pending as failed — so a run with
// SILO_GREP exited 1 even when every selected test passed. Instead, this marks unselected tests (and
// suites with none selected, so their before/after hooks do not run) pending before mocha runs:
// they are reported as skipped, and the run passes when the selected tests pass.
// Loaded by web-test-runner.config.mjs after the mocha adapter; the pattern is in `window.__SILO_GREP__`.
const pattern = new RegExp(window.__SILO_GREP__);

function select(suite) {
  let any = false;
  for (const test of suite.tests) {
    if (pattern.test(test.fullTitle())) any = true;
    else test.pending = true;
  }
  for (const child of suite.suites) if (select(child)) any = true;
  if (!any) suite.pending = true;
  return any;
}

const run = window.mocha.run;
window.mocha.run = function (...args) {
  select(window.mocha.suite);
  return run.apply(this, args);
};
