"""Verdicts: the words of a verdict, what a claim kind works with, the statistics, the generic
claim kinds, bounds, whether a claim could reach each verdict, how firmly it stands and why a
claim failed. Imports the simulation layer and the root of core, never pages or the build."""
