import { useEffect } from 'react';
import type { PlatformId } from '../api.ts';
import type { ComposeTab, GroupState } from './compose-group.ts';

/**
 * What Compose keeps in this browser while someone writes, so a reload, a closed tab or a trip
 * to another page loses nothing: the text and its parts, the channel, the time, and the server
 * draft it belongs to once autosave has created one. Cleared when the post is published or
 * scheduled, and by "Write another".
 */
export interface LocalDraft {
  text: string;
  thread: string[];
  firstComment: string;
  platform: PlatformId;
  channelId: string;
  when: string;
  /** The server draft autosave writes to, once there is one. */
  postId: string | null;
  attemptKey: string;
  savedAt: number;
  /** A post to several channels: every tab, and which one was open. */
  tabs?: ComposeTab[];
  active?: number;
  /** The post group autosave writes to, once there is one. */
  group?: GroupState | null;
}

const STORAGE = 'postkit.compose.draft';

export function readLocalDraft(): LocalDraft | null {
  try {
    const raw = localStorage.getItem(STORAGE);
    if (!raw) return null;
    const draft = JSON.parse(raw) as LocalDraft;
    return typeof draft.text === 'string' && Array.isArray(draft.thread) ? draft : null;
  } catch {
    return null;
  }
}

export function writeLocalDraft(draft: LocalDraft | null) {
  try {
    if (draft && (draft.text.trim() || draft.thread.some((p) => p.trim()) || draft.firstComment.trim()))
      localStorage.setItem(STORAGE, JSON.stringify(draft));
    else localStorage.removeItem(STORAGE);
  } catch {
    // Storage full or disabled: autosave to the server still keeps the draft once a channel is chosen.
  }
}

/** The browser's own "Leave site?" prompt while `unsaved` (a reload, a closed tab, another address). */
export function useLeaveWarning(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
