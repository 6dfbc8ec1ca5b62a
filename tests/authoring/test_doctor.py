"""`autograder doctor`: what this machine has for the workbook."""
from autograder.cli import main

def test_doctor_reports_clang_and_the_cpu_device(capsys):
  assert main(["doctor"]) == 0                                    # set-up has installed everything required
  out = capsys.readouterr().out
  assert "clang" in out and "tinygrad device CPU" in out and "tinygrad==0.14.0" in out
