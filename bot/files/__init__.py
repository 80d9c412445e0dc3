"""Files people share with the bot in a thread or a DM, as sources of that conversation's
research: `download` fetches one with the bot token (size, type and sign-in page checked),
`formats` says which files the research can read, and `store` keeps them in a library folder
of the conversation alone, cited by their Slack permalinks."""

from bot.files.download import (
    DEFAULT_MAX_BYTES,
    Downloaded,
    FileRefusal,
    Reason,
    SharedFile,
    download,
    slack_file_hosts,
    trusted_origins,
)
from bot.files.store import (
    Conversation,
    ConversationFiles,
    KeptFile,
    conversation_files,
    conversation_of,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Conversation",
    "ConversationFiles",
    "Downloaded",
    "FileRefusal",
    "KeptFile",
    "Reason",
    "SharedFile",
    "conversation_files",
    "conversation_of",
    "download",
    "slack_file_hosts",
    "trusted_origins",
]
