"""timebandits: replication of five papers on bandits with time or resources."""
