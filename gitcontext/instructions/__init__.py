"""Discovery, segmentation and the executor view of agent context files."""
