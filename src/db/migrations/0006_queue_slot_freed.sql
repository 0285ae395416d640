-- A post leaving a queue slot (canceled, failed, back to draft, moved, deleted) lowers its
-- channel queue's filled_until hint below that slot, so queue assignment never skips a slot
-- that has become free, whichever code path freed it.
CREATE OR REPLACE FUNCTION queue_slot_freed() RETURNS trigger AS $$
BEGIN
  UPDATE channel_queues SET filled_until = OLD.scheduled_for - 1
   WHERE channel_id = OLD.channel_id AND filled_until >= OLD.scheduled_for;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER posts_queue_slot_freed_update AFTER UPDATE OF status, scheduled_for, channel_id ON posts
FOR EACH ROW
WHEN (
  OLD.channel_id IS NOT NULL AND OLD.scheduled_for IS NOT NULL
  AND OLD.status IN ('scheduled', 'publishing', 'published')
  AND (NEW.status NOT IN ('scheduled', 'publishing', 'published')
       OR NEW.scheduled_for IS DISTINCT FROM OLD.scheduled_for
       OR NEW.channel_id IS DISTINCT FROM OLD.channel_id)
)
EXECUTE FUNCTION queue_slot_freed();
--> statement-breakpoint
CREATE TRIGGER posts_queue_slot_freed_delete AFTER DELETE ON posts
FOR EACH ROW
WHEN (
  OLD.channel_id IS NOT NULL AND OLD.scheduled_for IS NOT NULL
  AND OLD.status IN ('scheduled', 'publishing', 'published')
)
EXECUTE FUNCTION queue_slot_freed();
