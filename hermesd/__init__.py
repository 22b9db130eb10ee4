"""hermesd: an offline agent daemon that turns plain-language commands into validated actions."""

__version__ = "0.1.0"
