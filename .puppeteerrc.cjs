// Nothing can be downloaded on our machines: the tests use Debian's Chromium and Firefox ESR.
module.exports = { skipDownload: true };
