"""The grading core, shared by every command: where modules are (`course`), the nbgrader view of a notebook
(`cells`, `hints`, `settings` for `metadata.autograder`), reading untrusted files (`files`) and rebuilding a notebook
from the trusted source (`assemble`), one analysis of the names Python code reads and binds (`names`), what is done to
trusted cells before a kernel runs them (`transform`), running a notebook (`execute`) in the sandbox (`sandbox`,
`limits`), the run service grading, authoring and the classroom share (`runs`: a run's set-up, a module's run in the
sandbox, the cached reference run), reading a run: the verdict (`verdict`) and the messages that find a failure's
cause (`cause`), and a report's forms for the terminal, Markdown and JSON (`report`), which self-checks and grading
both write."""
