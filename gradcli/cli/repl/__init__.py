"""The interactive session: a prompt_toolkit line editor over language.session.Session."""
