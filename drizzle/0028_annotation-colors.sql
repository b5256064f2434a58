-- Annotations have a colour from a fixed palette (as Zotero's); rows written before colours are yellow.
ALTER TABLE "annotations" ADD COLUMN "color" text DEFAULT 'yellow' NOT NULL;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_color_check" CHECK ("annotations"."color" in ('yellow', 'red', 'green', 'blue', 'purple', 'magenta', 'orange', 'gray'));