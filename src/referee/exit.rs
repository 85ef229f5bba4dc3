//! The exit statuses of `punct-referee` (docs/referee.md, "Exit status").

/// Exit status: the run finished (SPRT H1 accepted or no SPRT).
pub const EXIT_OK: u8 = 0;
/// Exit status of `-compliance` when a step failed.
pub const EXIT_CHECK_FAILED: u8 = 1;
/// Exit status: bad arguments or configuration.
pub const EXIT_BAD_ARGS: u8 = 2;
/// Exit status: SPRT accepted H0.
pub const EXIT_SPRT_H0: u8 = 3;
/// Exit status: an engine failed (crash, stall, time loss, illegal move) under `-strict`.
pub const EXIT_ENGINE_FAILURE: u8 = 4;
/// Exit status: the referee itself failed (records cannot be written, ...).
pub const EXIT_ERROR: u8 = 5;
/// Exit status after SIGINT/SIGTERM/SIGHUP: the run can be continued with `-resume`.
pub const EXIT_INTERRUPTED: u8 = 130;
