"""The learner's commands: `autograder check` (the self-check, `selfcheck`), `autograder hint` and
`autograder progress`; wired by `commands`. They read the released starter, never the solutions."""
