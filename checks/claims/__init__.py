"""Claims: is each statement of fact the rulebook makes true under its rules?"""
