"""The GitHub Action layer over the CLI: inputs, outputs, summary, annotations, PR comment."""
