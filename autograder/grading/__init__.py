"""Grading a submission: the reference run and its cache and the learner's run in the sandbox (`runs`), the
verdict per module (`grade`), suspicious code for review (`flags`), and the learner's feedback page (`feedback`);
`commands` wires `autograder grade`."""
