"""Stage 3, evaluation: the expression language (expr) over rlkl.core's functions
(functions), computing every claim (evaluate, quiz) and judging each number at its written
precision (judge, precision).
"""
