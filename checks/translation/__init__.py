"""The translation check: do two versions of a rulebook state the same facts?"""
