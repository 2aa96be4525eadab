"""A rulebook's own words as the checks read them: its lines (scan damage undone,
misspellings found), the language data, the facts a sentence states, and the words that
admit more than one meaning."""
