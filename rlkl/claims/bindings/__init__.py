"""``claims.yaml``: what it holds (model), how it is read with positions (reader,
yaml_source) and the rules the schema cannot state (rules).
"""
