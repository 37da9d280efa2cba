"""`tokdrill bench`: performance figures measured side by side with their baselines."""
