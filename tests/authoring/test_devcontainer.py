"""The dev container (this repository's .devcontainer/devcontainer.json and the learner export's, from
autograder/authoring/learner_repo/devcontainer.json): valid JSON with comments as the spec allows, only properties
the spec defines, with the types it gives, and in step with the set-up: it runs `make setup` (scripts/setup.sh, the
same as `make`), its image's Python is one setup.sh accepts, and it forwards the port `make lab` opens. No container
engine runs here: what a container does with the file (pulling the image, apt-get in it, a Codespace) is not tested.
The spec: containers.dev/implementors/json_reference (properties), containers.dev/implementors/spec (JSON with
comments, trailing commas allowed)."""
import json
import re
import subprocess
from pathlib import Path
import os
import pytest
from autograder.core.course import REPO

LEARNER = REPO / "autograder" / "authoring" / "learner_repo"
FILES = {"repository": (REPO / ".devcontainer" / "devcontainer.json", REPO / "Makefile"),
         "learner export": (LEARNER / "devcontainer.json", LEARNER / "Makefile")}
# The properties of devcontainer.json (general, image or Dockerfile, Docker Compose, lifecycle scripts), and the
# type each takes.
LIFECYCLE = (str, list, dict)
PROPERTIES = {
  "name": str, "image": str, "build": dict, "dockerComposeFile": (str, list), "service": str, "runServices": list,
  "forwardPorts": list, "portsAttributes": dict, "otherPortsAttributes": dict, "appPort": (int, str, list),
  "containerEnv": dict, "remoteEnv": dict, "remoteUser": str, "containerUser": str, "updateRemoteUserUID": bool,
  "userEnvProbe": str, "overrideCommand": bool, "shutdownAction": str, "init": bool, "privileged": bool, "capAdd": list,
  "securityOpt": list, "mounts": list, "features": dict, "overrideFeatureInstallOrder": list, "customizations": dict,
  "hostRequirements": dict, "workspaceMount": str, "workspaceFolder": str, "runArgs": list, "waitFor": str,
  "initializeCommand": LIFECYCLE, "onCreateCommand": LIFECYCLE, "updateContentCommand": LIFECYCLE,
  "postCreateCommand": LIFECYCLE, "postStartCommand": LIFECYCLE, "postAttachCommand": LIFECYCLE,
}
PORT_ATTRIBUTES = {"label": str, "protocol": str, "onAutoForward": str, "requireLocalPort": bool, "elevateIfNeeded": bool}
ON_AUTO_FORWARD = {"notify", "openBrowser", "openBrowserOnce", "openPreview", "silent", "ignore"}
HOST = {"cpus": int, "memory": str, "storage": str, "gpu": (bool, str, dict)}

def make_n(target:str, folder:Path) -> list[str]:
  """The commands `make TARGET` would run in `folder` (not run), whatever make this test itself runs under."""
  env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
  done = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=folder, capture_output=True, text=True, env=env)
  assert done.returncode == 0, done.stderr
  return done.stdout.strip().splitlines()

def jsonc(text:str):
  """JSON with comments (// and /* */, outside strings) and trailing commas, as devcontainer.json allows."""
  out, i, n = [], 0, len(text)
  while i < n:
    c = text[i]
    if c == '"':
      j = i + 1
      while text[j] != '"': j += 2 if text[j] == "\\" else 1
      out.append(text[i:j + 1]); i = j + 1
    elif text.startswith("//", i): i = text.find("\n", i) if "\n" in text[i:] else n
    elif text.startswith("/*", i): i = text.index("*/", i) + 2
    else: out.append(c); i += 1
  return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))

def test_the_comment_syntax_is_read_as_the_spec_allows():
  assert jsonc('// a\n{"a": "http://x", /* b */ "b": [1, 2,],\n}') == {"a": "http://x", "b": [1, 2]}
  with pytest.raises(ValueError): jsonc('{"a": 1 "b": 2}')

@pytest.mark.parametrize("where", FILES)
def test_the_dev_container_is_valid_and_in_step_with_the_setup(where):
  path, makefile = FILES[where]
  conf = jsonc(path.read_text())
  assert set(conf) <= set(PROPERTIES), f"not a devcontainer.json property: {set(conf) - set(PROPERTIES)}"
  for key, value in conf.items(): assert isinstance(value, PROPERTIES[key]), f"{key}: {type(value).__name__}"
  assert ("image" in conf) != ("build" in conf) and "dockerComposeFile" not in conf            # an image, no Dockerfile needed
  for key, value in conf["hostRequirements"].items():
    assert isinstance(value, HOST[key]) and (key == "cpus" or re.fullmatch(r"\d+([tgmk]b)?", value)), key
  # the set-up: the same as `make`, whose `setup` target runs scripts/setup.sh
  assert conf["postCreateCommand"] == "make setup"
  assert make_n("setup", makefile.parent) == ["bash scripts/setup.sh"]
  # the image's Python: one that setup.sh accepts (3.11 or newer)
  tag = re.fullmatch(r"mcr\.microsoft\.com/devcontainers/python:(?:\d+-)?(\d+)\.(\d+)-[a-z]+", conf["image"])
  assert tag, conf["image"]
  need = re.search(r"sys\.version_info < \((\d+), (\d+)\)", (REPO / "scripts" / "setup.sh").read_text())
  assert (int(tag[1]), int(tag[2])) >= (int(need[1]), int(need[2])) >= (3, 11)
  assert tuple(map(int, re.search(r'requires-python = ">=(\d+)\.(\d+)"', (REPO / "pyproject.toml").read_text()).groups())) <= (int(tag[1]), int(tag[2]))
  # JupyterLab: `make lab` opens projects/ at a port the container forwards
  lab = make_n("lab", makefile.parent)[-1]
  port = re.fullmatch(r"\.venv/bin/jupyter lab projects --port=(\d+)", lab.strip())
  assert port, lab
  assert conf["forwardPorts"] == [int(port[1])] and set(conf["portsAttributes"]) == {port[1]}
  for attrs in conf["portsAttributes"].values():
    assert set(attrs) <= set(PORT_ATTRIBUTES) and all(isinstance(v, PORT_ATTRIBUTES[k]) for k, v in attrs.items())
    assert attrs.get("onAutoForward", "notify") in ON_AUTO_FORWARD
  assert conf["postAttachCommand"] == "make lab"
  assert conf["customizations"]["vscode"]["settings"]["python.defaultInterpreterPath"] == "${containerWorkspaceFolder}/.venv/bin/python"

def test_the_repository_and_the_export_open_the_same_container():
  mine, theirs = (jsonc(p.read_text()) for p, _ in FILES.values())
  assert {k: v for k, v in mine.items() if k != "name"} == {k: v for k, v in theirs.items() if k != "name"}
  readme = (LEARNER / "README.md").read_text()
  assert "Codespace" in readme and "Reopen in Container" in readme and "8888" in readme
