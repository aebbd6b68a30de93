"""HTML pages (lobby, auth forms, invite, match). Filled in by the UI work."""

from fastapi import APIRouter

router = APIRouter()
