import type { Channel } from '../api.ts';
import { channelName } from '../lib/channels.ts';
import type { ComposeTab } from './compose-group.ts';

/**
 * The other channels this post also goes to: one checkbox per connected channel besides the one
 * the editor's tab writes for. Ticking one adds a tab for it; clearing it takes the tab out.
 */
export function AlsoPostTo({
  connected,
  current,
  chosen,
  onAdd,
  onRemove,
  hidden = false,
}: {
  /** Editing one post of a group: it stays that channel's post (GroupVariantNote says so). */
  hidden?: boolean;
  connected: Channel[];
  /** The channel of the tab being edited (chosen with the Channel picker). */
  current: string;
  /** The channels of the other tabs. */
  chosen: string[];
  onAdd: (channel: Channel) => void;
  onRemove: (channelId: string) => void;
}) {
  const others = connected.filter((c) => c.id !== current);
  if (hidden || !current || others.length === 0) return null;
  return (
    <fieldset className="also-post-to">
      <legend>Also post to</legend>
      <div className="row wrap">
        {others.map((c) => (
          <label key={c.id} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(c.id)}
              onChange={(e) => (e.target.checked ? onAdd(c) : onRemove(c.id))}
            />
            <span>{channelName(c)}</span>
          </label>
        ))}
      </div>
      <p className="hint">
        Each channel gets its own tab, with its own text, score, preview and first comment; they are saved,
        scheduled and published together.
      </p>
    </fieldset>
  );
}

/** One tab per channel of the post; the one open is the one the editor below writes. */
export function ChannelTabs({
  tabs,
  active,
  connected,
  needsFixing,
  onOpen,
  onRemove,
  removable = true,
}: {
  /** False once the posts went out: a tab can be read, no longer taken out. */
  removable?: boolean;
  tabs: ComposeTab[];
  active: number;
  connected: Channel[];
  /** Per tab: its live check found an error. */
  needsFixing: boolean[];
  onOpen: (index: number) => void;
  onRemove: (index: number) => void;
}) {
  if (tabs.length < 2) return null;
  const nameOf = (tab: ComposeTab) => {
    const channel = connected.find((c) => c.id === tab.channelId);
    return channel ? channelName(channel) : 'A channel no longer connected';
  };
  return (
    <div className="channel-tabs">
      <div role="tablist" aria-label="Channels of this post" className="row wrap">
        {tabs.map((tab, i) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={i === active}
            className={i === active ? 'tab current' : 'tab'}
            onClick={() => onOpen(i)}
          >
            {nameOf(tab)}
            {needsFixing[i] && <span className="v-error"> · needs fixing</span>}
          </button>
        ))}
      </div>
      {removable && (
        <button type="button" className="link" onClick={() => onRemove(active)}>
          Remove {nameOf(tabs[active]!)} from this post
        </button>
      )}
    </div>
  );
}
