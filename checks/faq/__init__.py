"""The FAQ: the questions players ask, each answered by judging the rules."""
