// A @web/test-runner plugin that starts the services browser tests need (the real bridge with the
// real reference agent) on port 0, and hands their addresses to tests through `executeServerCommand`.
export function siloTestServices() {
  return {
    name: 'silo-test-services',
    async serverStart() {},
    async serverStop() {},
  };
}
