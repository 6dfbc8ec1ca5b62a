"""Grading a submission: the verdict per module (`grade`, from the reference run and the learner's run in the
sandbox that `core.runs` provides), suspicious code for review (`flags`), and the learner's feedback page
(`feedback`); `commands` wires `autograder grade`."""
