"""The self-describing claim forms, checked with no binding: literal arithmetic and KL or
entropy of literal distributions (recognised in recognise, checked in forms).
"""
