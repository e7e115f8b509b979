# The host link: framed, acknowledged, replayable reports (docs/host-link.md).
