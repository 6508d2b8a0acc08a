/* geometry_placeholder.c -- temporary: keeps libgeometry.la non-empty until geometry.c lands. */
int hr_geometry_placeholder;
