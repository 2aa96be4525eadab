"""`rulings serve`: a rulings desk in the browser, and a JSON API beside it.

Every page and every answer is computed by the code the command line runs (the
documents of `rulings.cli`, `rulings.scenario`, the kernel's moves through the scenario
codec, the checks and the FAQ): the server adds pages, a situation builder and limits,
never rules of its own.

- `app.py`: the application (FastAPI on Starlette): its pages (`pages.py`), its API
  under /api/ (`api.py`), the errors it answers with, the static files;
- `specs.py`: the games it knows: the packaged ones and spec files uploaded to it;
- `answers.py`: the questions, answered in a worker process (what a page or an API
  route asks; nothing there knows HTTP);
- `workers.py`: the worker pools: a deadline on every question, a bound on what waits;
  `jobs.py`: the long ones (a FAQ, a game's check findings), computed in the background;
- `limits.py`: bounds on what a request may send (size, nesting, numbers, text);
- `situation.py`: what the situation builder needs of a spec (its zones by kind, its
  counters, phases, cards) and the permalink of a situation and its moves;
- `rulebook.py`: clauses in rulebook order, and the rulebook's lines beside them when
  `RULINGS_RULEBOOKS` names their folder;
- `command.py`: the `rulings serve` command.

Templates and static files (a small script for the builder, no other) are package data.
"""
